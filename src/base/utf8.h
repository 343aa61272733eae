/*
 * utf8.h - UTF-8 well-formedness, shared by the report formatters (report_json.c turns bad
 * bytes into U+FFFD, report_text.c into '?').
 *
 * Header-only and static inline: a few compares per character, called once per byte run of
 * every string in a report, and pure (no libc, no state), so it is safe on the exit and
 * fatal-signal paths the reports run on.
 */
#ifndef TT_UTF8_H
#define TT_UTF8_H

/*
 * Length (1-4) of the well-formed UTF-8 sequence starting at s, or 0 when there is none; then
 * *skip is the length of the maximal ill-formed prefix, which becomes a single replacement (the
 * Unicode "maximal subpart" practice, so one bad byte never swallows the next good one).
 * The byte ranges are those of Unicode table 3-7: no overlongs, surrogates or > U+10FFFF.
 * A NUL byte fails every range, so this never reads past the end of the string.
 */
static inline unsigned int tt_utf8_len(const unsigned char *s, unsigned int *skip)
{
	/* sequence length from the lead byte: C0, C1 and F5-FF never start one */
	unsigned int n = s[0] < 0x80   ? 1
			 : s[0] < 0xc2 ? 0
			 : s[0] < 0xe0 ? 2
			 : s[0] < 0xf0 ? 3
			 : s[0] < 0xf5 ? 4
				       : 0;
	/* the second byte's range excludes overlongs (E0, F0), surrogates (ED), > 10FFFF (F4) */
	unsigned char lo = s[0] == 0xe0 ? 0xa0 : s[0] == 0xf0 ? 0x90 : 0x80;
	unsigned char hi = s[0] == 0xed ? 0x9f : s[0] == 0xf4 ? 0x8f : 0xbf;
	unsigned int i;

	*skip = 1;
	for (i = 1; i < n; i++, lo = 0x80, hi = 0xbf) {
		if (s[i] < lo || s[i] > hi) {
			*skip = i;
			return 0;
		}
	}
	return n;
}

#endif /* TT_UTF8_H */
