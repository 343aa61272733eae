"""kept_mac.py FILE... - make every record of the kept .plan/.xref FILEs carry a MAC that
verifies under the key of their directory, as the shim writes it (src/base/kept_mac.c):
SipHash-2-4 under the key file's first 16 bytes over the file's magic (8 bytes), the build
ID's length (1 byte) and bytes (the file's name in hex), and the record but its last 8
bytes, which hold the MAC. The tests run as root and so can read the key: what they forge
then is what only the user could forge (docs/security.md)."""
import os
import struct
import sys

M = 0xFFFFFFFFFFFFFFFF


def rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & M


def siphash24(key, data):
    k0, k1 = struct.unpack("<QQ", key)
    v = [k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D,
         k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573]

    def rnd():
        v[0] = (v[0] + v[1]) & M
        v[1] = rotl(v[1], 13) ^ v[0]
        v[0] = rotl(v[0], 32)
        v[2] = (v[2] + v[3]) & M
        v[3] = rotl(v[3], 16) ^ v[2]
        v[0] = (v[0] + v[3]) & M
        v[3] = rotl(v[3], 21) ^ v[0]
        v[2] = (v[2] + v[1]) & M
        v[1] = rotl(v[1], 17) ^ v[2]
        v[2] = rotl(v[2], 32)

    def word(m):
        v[3] ^= m
        rnd()
        rnd()
        v[0] ^= m

    whole = len(data) // 8 * 8
    for i in range(0, whole, 8):
        word(struct.unpack_from("<Q", data, i)[0])
    last = (len(data) & 0xFF) << 56
    for i, c in enumerate(data[whole:]):
        last |= c << (8 * i)
    word(last)
    v[2] ^= 0xFF
    for _ in range(4):
        rnd()
    return v[0] ^ v[1] ^ v[2] ^ v[3]


# The paper's first test vectors: this model is the shim's.
assert siphash24(bytes(range(16)), b"") == 0x726FDB47DD0E0E31
assert siphash24(bytes(range(16)), bytes(range(15))) == 0xA129CA6149BE45E5


def resign(path):
    key = open(os.path.join(os.path.dirname(path), "key"), "rb").read()[:16]
    build_id = bytes.fromhex(os.path.basename(path).split(".")[0])
    b = bytearray(open(path, "rb").read())
    n, rec, _key, per, first = struct.unpack_from("<IIIII", b, 32)
    for i in range(n):
        at = first + i // per * 4096 + i % per * rec  # pages of records (base/kept_file.h)
        msg = bytes(b[0:8]) + bytes([len(build_id)]) + build_id + bytes(b[at:at + rec - 8])
        struct.pack_into("<Q", b, at + rec - 8, siphash24(key, msg))
    open(path, "wb").write(b)


for p in sys.argv[1:]:
    resign(p)
