#!/usr/bin/env python3
"""Makes a built library a DuckDB extension file: copies it and appends the metadata footer
DuckDB reads before it loads an extension (an unsigned one: 256 zero bytes where a signature
would be; DuckDB loads it with `allow_unsigned_extensions`).

The footer, as DuckDB's own extension build writes it (extension-ci-tools'
append_extension_metadata.py): a WebAssembly-style custom-section start naming
`duckdb_signature`, eight 32-byte NUL-padded fields, then the signature space.

usage: duckdb-footer.py LIBRARY OUT VERSION PLATFORM
"""
import sys

lib, out, version, platform = sys.argv[1:5]
START = bytes([0x00, 0x93, 0x04, 0x10]) + b"duckdb_signature" + bytes([0x80, 0x04])
# Fields in file order: three unused, the ABI type (the C API's struct), the extension's
# version, the oldest C API it needs (the `duckdb` crate 1.20000.x: v1.2.0), the platform
# (DuckDB's `PRAGMA platform`), the metadata version.
fields = ["", "", "", "C_STRUCT", version, "v1.2.0", platform, "4"]
with open(lib, "rb") as f:
    body = f.read()
footer = START
for v in fields:
    b = v.encode()
    if len(b) > 32:
        sys.exit(f"duckdb-footer: {v!r} is longer than a 32-byte field")
    footer += b + bytes(32 - len(b))
footer += bytes(256)
with open(out, "wb") as f:
    f.write(body + footer)
