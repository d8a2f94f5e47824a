import unittest

from datekit.calendar_math import days_in_month, is_leap_year


class CalendarMathTest(unittest.TestCase):
    def test_every_fourth_year_is_a_leap_year(self):
        self.assertTrue(is_leap_year(2024))
        self.assertFalse(is_leap_year(2023))

    def test_1900_was_not_a_leap_year(self):
        self.assertFalse(is_leap_year(1900))

    def test_days_in_month(self):
        self.assertEqual(days_in_month(2023, 1), 31)
        self.assertEqual(days_in_month(2023, 2), 28)
        self.assertEqual(days_in_month(2024, 2), 29)
        self.assertEqual(days_in_month(2023, 4), 30)


if __name__ == "__main__":
    unittest.main()
