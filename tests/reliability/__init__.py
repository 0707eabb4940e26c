"""The reliability and security suite (docs/RELIABILITY.md): see README.md in this folder."""
