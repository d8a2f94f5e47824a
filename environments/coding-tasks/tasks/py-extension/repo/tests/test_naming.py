import unittest

from reports.naming import converted_name


class ConvertedNameTest(unittest.TestCase):
    def test_swaps_the_extension(self):
        self.assertEqual(converted_name("notes.txt"), "notes.csv")
        self.assertEqual(converted_name("data.txt"), "data.csv")

    def test_other_extensions(self):
        self.assertEqual(converted_name("table.tsv", ".tsv", ".json"), "table.json")


if __name__ == "__main__":
    unittest.main()
