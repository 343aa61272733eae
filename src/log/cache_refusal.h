/*
 * cache_refusal.h - the one line that says the cache was refused (base/cache_dir.h): the
 * refusal is found wherever a file or directory is first looked at (hook/ for the inline
 * hooks' files, runtime/ for the calibration's), and said once per process by whichever
 * caller comes first.
 */
#ifndef TT_CACHE_REFUSAL_H
#define TT_CACHE_REFUSAL_H

/* Say the refusal's reason if it was not said yet; nothing when the cache was not refused. */
void tt_cache_refusal_say(void);

/* Say, once per process, that kept records failed their MAC (base/kept_mac.h): altered,
 * forged, or kept under another key; they were not used, and are made again. */
void tt_cache_rejected_say(void);

#endif /* TT_CACHE_REFUSAL_H */
