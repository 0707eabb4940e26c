"""The reliability and security suite (RELIABILITY.md): see README.md in this folder."""
