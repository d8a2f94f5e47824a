import unittest

from notebook.notes import Note


class NoteTest(unittest.TestCase):
    def test_keeps_given_tags(self):
        self.assertEqual(Note("a", ["x", "y"]).tags, ["x", "y"])

    def test_adds_a_tag_once(self):
        note = Note("a", ["x"])
        note.add_tag("y")
        note.add_tag("y")
        self.assertEqual(note.tags, ["x", "y"])


if __name__ == "__main__":
    unittest.main()
