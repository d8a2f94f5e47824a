import unittest

from batching.chunks import chunked


class ChunkedTest(unittest.TestCase):
    def test_even_split(self):
        self.assertEqual(chunked([1, 2, 3, 4, 5, 6], 3), [[1, 2, 3], [4, 5, 6]])

    def test_size_must_be_positive(self):
        with self.assertRaises(ValueError):
            chunked([1, 2], 0)


if __name__ == "__main__":
    unittest.main()
