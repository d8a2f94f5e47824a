import unittest

from numkit.summary import median


class SummaryHiddenTest(unittest.TestCase):
    def test_median_of_an_even_count(self):
        self.assertEqual(median([1, 2, 3, 4]), 2.5)

    def test_median_of_an_even_count_in_any_order(self):
        self.assertEqual(median([40, 10, 30, 20]), 25)
        self.assertEqual(median([7, 3]), 5)

    def test_median_of_floats(self):
        self.assertAlmostEqual(median([0.5, 0.25, 1.0, 0.75]), 0.625)

    def test_median_of_an_odd_count(self):
        self.assertEqual(median([5, 1, 3]), 3)
        self.assertEqual(median([42]), 42)

    def test_median_of_nothing(self):
        with self.assertRaises(ValueError):
            median([])
