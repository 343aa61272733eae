/*
 * siphash.h - SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF", 2012):
 * a keyed hash whose 64-bit answer no one without the 128-bit key can predict or forge.
 * What the cache keeps is authenticated with it (kept_mac.h). Pure, unit-tested against the
 * paper's test vectors; incremental, so that a record and what names its object are hashed
 * as one message without copying them together.
 */
#ifndef TT_SIPHASH_H
#define TT_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

#define TT_SIPHASH_KEY 16 /* bytes of a key */

struct tt_siphash {
	uint64_t v0, v1, v2, v3;
	uint64_t tail;	/* the bytes of an unfinished 8-byte word, little-endian */
	uint64_t total; /* bytes taken so far */
};

/* Start a hash under key (16 bytes, read as two little-endian words). */
void tt_siphash_init(struct tt_siphash *s, const uint8_t key[TT_SIPHASH_KEY]);

/* Hash len more bytes of the message. */
void tt_siphash_update(struct tt_siphash *s, const void *data, size_t len);

/* The hash of the whole message (s is spent). */
uint64_t tt_siphash_final(struct tt_siphash *s);

/* The hash of data[0, len) under key, in one call. */
uint64_t tt_siphash(const uint8_t key[TT_SIPHASH_KEY], const void *data, size_t len);

#endif /* TT_SIPHASH_H */
