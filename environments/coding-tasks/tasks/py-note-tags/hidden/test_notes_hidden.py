import unittest

from notebook.notes import Note


class NoteHiddenTest(unittest.TestCase):
    def test_a_new_note_has_no_tags(self):
        self.assertEqual(Note("first").tags, [])

    def test_tagging_one_note_leaves_the_others(self):
        first = Note("buy milk")
        second = Note("call mum")
        first.add_tag("urgent")
        self.assertEqual(first.tags, ["urgent"])
        self.assertEqual(second.tags, [])
        self.assertEqual(Note("later").tags, [])

    def test_keeps_given_tags(self):
        self.assertEqual(Note("a", ["x", "y"]).tags, ["x", "y"])

    def test_adds_a_tag_once(self):
        note = Note("a")
        note.add_tag("y")
        note.add_tag("y")
        self.assertEqual(note.tags, ["y"])
