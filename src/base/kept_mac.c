/*
 * kept_mac.c - see kept_mac.h.
 */
#include <string.h>

#include "base/kept_mac.h"

uint64_t tt_kept_mac(const uint8_t key[TT_SIPHASH_KEY], const struct tt_kept_format *fmt,
		     const uint8_t *id, size_t id_len, const void *rec)
{
	struct tt_siphash s;
	uint8_t n = (uint8_t)(id_len > 255 ? 255 : id_len);

	/* The length first, so that no build ID and record can be read as another pair. */
	tt_siphash_init(&s, key);
	tt_siphash_update(&s, fmt->magic, sizeof(fmt->magic));
	tt_siphash_update(&s, &n, 1);
	tt_siphash_update(&s, id, n);
	tt_siphash_update(&s, rec, fmt->record - TT_KEPT_MAC_BYTES);
	return tt_siphash_final(&s);
}

void tt_kept_mac_sign(const uint8_t key[TT_SIPHASH_KEY], const struct tt_kept_format *fmt,
		      const uint8_t *id, size_t id_len, void *rec)
{
	uint64_t mac = tt_kept_mac(key, fmt, id, id_len, rec);

	memcpy((char *)rec + fmt->record - TT_KEPT_MAC_BYTES, &mac, sizeof(mac));
}

bool tt_kept_mac_ok(const uint8_t key[TT_SIPHASH_KEY], const struct tt_kept_format *fmt,
		    const uint8_t *id, size_t id_len, const void *rec)
{
	uint64_t mac = tt_kept_mac(key, fmt, id, id_len, rec), kept;

	if (fmt->record < TT_KEPT_MAC_BYTES)
		return false;
	memcpy(&kept, (const char *)rec + fmt->record - TT_KEPT_MAC_BYTES, sizeof(kept));
	return mac == kept;
}
