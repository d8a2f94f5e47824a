import unittest

from reports.naming import converted_name


class ConvertedNameHiddenTest(unittest.TestCase):
    def test_keeps_letters_of_the_name(self):
        self.assertEqual(converted_name("budget.txt"), "budget.csv")
        self.assertEqual(converted_name("report.txt"), "report.csv")
        self.assertEqual(converted_name("text.txt"), "text.csv")

    def test_removes_the_extension_once(self):
        self.assertEqual(converted_name("notes.txt.txt"), "notes.txt.csv")

    def test_a_name_without_the_extension_gets_the_new_one(self):
        self.assertEqual(converted_name("README"), "README.csv")

    def test_swaps_the_extension(self):
        self.assertEqual(converted_name("notes.txt"), "notes.csv")

    def test_other_extensions(self):
        self.assertEqual(converted_name("table.tsv", ".tsv", ".json"), "table.json")
