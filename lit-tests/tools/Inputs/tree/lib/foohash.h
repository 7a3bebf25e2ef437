/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _FOOHASH_H
#define _FOOHASH_H

int foo_mix(int a, int b);
unsigned int foo_hash(unsigned int h, unsigned int k);
/* Declared, never defined: a fun: entry naming it is stale. */
int foo_proto(int a);

#endif
