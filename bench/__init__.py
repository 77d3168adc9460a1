"""The live-play load benchmark (docs/BENCHMARKS.md): `make bench`."""
