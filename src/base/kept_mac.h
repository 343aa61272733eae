/*
 * kept_mac.h - the keyed check of a record kept between runs (kept_file.h): SipHash-2-4
 * (siphash.h) under the cache's secret key (cache_key.h) over what the record says and what
 * it is of. A record whose MAC does not verify was not written by the shim running as this
 * user with this key: altered, forged, moved from another object's file, or kept under an
 * older key; it is not used. Pure, unit-tested.
 */
#ifndef TT_KEPT_MAC_H
#define TT_KEPT_MAC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/kept_file.h"
#include "base/siphash.h"

/* A record's last 8 bytes hold its MAC (native byte order), over everything before them. */
#define TT_KEPT_MAC_BYTES 8

/* The MAC of rec, a record of fmt kept for the object with that build ID (id_len bytes, at
 * most 255): over fmt's magic, the build ID's length and bytes, and the record but its last
 * TT_KEPT_MAC_BYTES. */
uint64_t tt_kept_mac(const uint8_t key[TT_SIPHASH_KEY], const struct tt_kept_format *fmt,
		     const uint8_t *id, size_t id_len, const void *rec);

/* Write rec's MAC into its last TT_KEPT_MAC_BYTES. */
void tt_kept_mac_sign(const uint8_t key[TT_SIPHASH_KEY], const struct tt_kept_format *fmt,
		      const uint8_t *id, size_t id_len, void *rec);

/* rec's last TT_KEPT_MAC_BYTES are its MAC. */
bool tt_kept_mac_ok(const uint8_t key[TT_SIPHASH_KEY], const struct tt_kept_format *fmt,
		    const uint8_t *id, size_t id_len, const void *rec);

#endif /* TT_KEPT_MAC_H */
