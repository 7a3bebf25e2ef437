/* `/init tcp-seq-wrap` (tcp_seq_wrap.c): TCP streams on 127.0.0.1 across
 * sequence number 2^32, for the workload step tcp_seq_wrap. */
#ifndef QEMU_RUN_TCP_SEQ_WRAP_H
#define QEMU_RUN_TCP_SEQ_WRAP_H

int tcp_seq_wrap_main(void);

#endif
