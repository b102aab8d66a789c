"""The normalized record, native-file providers, the LMDB store, merge and search."""
