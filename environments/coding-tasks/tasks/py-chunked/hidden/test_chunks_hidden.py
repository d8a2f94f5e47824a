import unittest

from batching.chunks import chunked


class ChunkedHiddenTest(unittest.TestCase):
    def test_last_chunk_holds_the_rest(self):
        self.assertEqual(chunked([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]])

    def test_size_larger_than_the_list(self):
        self.assertEqual(chunked(["a", "b"], 5), [["a", "b"]])

    def test_no_item_is_lost(self):
        items = list(range(23))
        chunks = chunked(items, 4)
        self.assertEqual([x for chunk in chunks for x in chunk], items)
        self.assertEqual([len(chunk) for chunk in chunks], [4, 4, 4, 4, 4, 3])

    def test_empty_list(self):
        self.assertEqual(chunked([], 3), [])

    def test_even_split(self):
        self.assertEqual(chunked([1, 2, 3, 4, 5, 6], 3), [[1, 2, 3], [4, 5, 6]])

    def test_size_must_be_positive(self):
        with self.assertRaises(ValueError):
            chunked([1, 2], 0)
