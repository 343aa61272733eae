/* chains.h - the functions of libchains.so (chains.c): traced names and untraced twins. */
#ifndef CHAINS_H
#define CHAINS_H

long empty_fn(long x);
long chain_64(long x);
long chain_256(long x);
long chain_1024(long x);

long plain_empty_fn(long x);
long plain_chain_64(long x);
long plain_chain_256(long x);
long plain_chain_1024(long x);

#endif /* CHAINS_H */
