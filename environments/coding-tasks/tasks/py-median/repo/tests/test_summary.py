import unittest

from numkit.summary import mean, median


class SummaryTest(unittest.TestCase):
    def test_mean(self):
        self.assertEqual(mean([1, 2, 3, 4]), 2.5)

    def test_median_of_an_odd_count(self):
        self.assertEqual(median([5, 1, 3]), 3)

    def test_median_of_nothing(self):
        with self.assertRaises(ValueError):
            median([])


if __name__ == "__main__":
    unittest.main()
