import unittest

from datekit.calendar_math import days_in_month, is_leap_year


class CalendarMathHiddenTest(unittest.TestCase):
    def test_years_divisible_by_400_are_leap_years(self):
        self.assertTrue(is_leap_year(2000))
        self.assertTrue(is_leap_year(2400))
        self.assertTrue(is_leap_year(1600))

    def test_other_centuries_are_not(self):
        for year in (1700, 1800, 1900, 2100, 2200):
            self.assertFalse(is_leap_year(year), year)

    def test_february_2000_has_29_days(self):
        self.assertEqual(days_in_month(2000, 2), 29)
        self.assertEqual(days_in_month(2100, 2), 28)

    def test_every_fourth_year_is_a_leap_year(self):
        self.assertTrue(is_leap_year(2024))
        self.assertFalse(is_leap_year(2023))

    def test_month_out_of_range(self):
        with self.assertRaises(ValueError):
            days_in_month(2024, 13)
