/*
 * siphash.c - see siphash.h. Written from the paper's description: four 64-bit words of
 * state, two rounds per message word, four to finish.
 */
#include "base/siphash.h"

static uint64_t rotl(uint64_t x, unsigned int b)
{
	return (x << b) | (x >> (64 - b));
}

static void sip_round(struct tt_siphash *s)
{
	s->v0 += s->v1;
	s->v1 = rotl(s->v1, 13) ^ s->v0;
	s->v0 = rotl(s->v0, 32);
	s->v2 += s->v3;
	s->v3 = rotl(s->v3, 16) ^ s->v2;
	s->v0 += s->v3;
	s->v3 = rotl(s->v3, 21) ^ s->v0;
	s->v2 += s->v1;
	s->v1 = rotl(s->v1, 17) ^ s->v2;
	s->v2 = rotl(s->v2, 32);
}

/* One message word: into v3, two rounds, into v0. */
static void take_word(struct tt_siphash *s, uint64_t m)
{
	s->v3 ^= m;
	sip_round(s);
	sip_round(s);
	s->v0 ^= m;
}

static uint64_t load_le(const uint8_t *p)
{
	uint64_t w = 0;

	for (unsigned int i = 0; i < 8; i++)
		w |= (uint64_t)p[i] << (8 * i);
	return w;
}

void tt_siphash_init(struct tt_siphash *s, const uint8_t key[TT_SIPHASH_KEY])
{
	uint64_t k0 = load_le(key), k1 = load_le(key + 8);

	/* "somepseudorandomlygeneratedbytes" */
	s->v0 = k0 ^ UINT64_C(0x736f6d6570736575);
	s->v1 = k1 ^ UINT64_C(0x646f72616e646f6d);
	s->v2 = k0 ^ UINT64_C(0x6c7967656e657261);
	s->v3 = k1 ^ UINT64_C(0x7465646279746573);
	s->tail = 0;
	s->total = 0;
}

void tt_siphash_update(struct tt_siphash *s, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len) {
		unsigned int at = (unsigned int)(s->total % 8);

		if (!at && len >= 8) { /* whole words straight from the message */
			take_word(s, load_le(p));
			p += 8;
			len -= 8;
			s->total += 8;
			continue;
		}
		s->tail |= (uint64_t)*p++ << (8 * at);
		len--;
		s->total++;
		if (at == 7) {
			take_word(s, s->tail);
			s->tail = 0;
		}
	}
}

uint64_t tt_siphash_final(struct tt_siphash *s)
{
	/* The last word: the bytes left, the message's length (mod 256) in its top byte. */
	take_word(s, s->tail | (s->total & 0xff) << 56);
	s->v2 ^= 0xff;
	for (unsigned int i = 0; i < 4; i++)
		sip_round(s);
	return s->v0 ^ s->v1 ^ s->v2 ^ s->v3;
}

uint64_t tt_siphash(const uint8_t key[TT_SIPHASH_KEY], const void *data, size_t len)
{
	struct tt_siphash s;

	tt_siphash_init(&s, key);
	tt_siphash_update(&s, data, len);
	return tt_siphash_final(&s);
}
