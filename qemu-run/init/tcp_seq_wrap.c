/* `/init tcp-seq-wrap`: TCP streams on 127.0.0.1 whose sequence numbers pass
 * 2^32 on every run (workload step tcp_seq_wrap).
 *
 * A connection's initial sequence numbers are random (secure_tcp_seq()), so
 * a boot whose streams happen to start near 2^32 meets TCP's modular
 * sequence arithmetic and one that does not never does: a wrap report there
 * would come and go between boots of the same kernel. This makes the wrap
 * certain, with the kernel's own checkpoint/restore interface (TCP_REPAIR,
 * CAP_NET_ADMIN; CRIU restores connections so):
 *
 *  1. handshake: a client socket gets its initial send sequence number
 *     below 2^32 (TCP_QUEUE_SEQ in repair mode, then repair off, which
 *     tcp_v4_connect() keeps), and connects to a real listener: the SYN,
 *     the server's SYN-ACK and the data that follows cross 2^32 on the
 *     client's send side and on the server's receive side;
 *  2. restored pair: two sockets put in ESTABLISHED by repair-mode connect()
 *     with both directions' sequence numbers below 2^32: data both ways
 *     crosses it on both sides;
 *  and in each, the streams are checked byte for byte, then closed with
 *  FIN on both sides. Exit 0 if every byte arrived as sent, else 1 with a
 *  message on stderr naming the step. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tcp_seq_wrap.h"

/* Bytes each stream sends: 1 MiB, starting this far below 2^32, so that the
 * wrap falls inside the stream, with segments and ACKs on both sides of it. */
#define STREAM_BYTES (1u << 20)
#define BELOW_WRAP 300007u

static int fail(const char *what)
{
	fprintf(stderr, "tcp-seq-wrap: %s: %s\n", what, strerror(errno));
	return -1;
}

static int setopt(int fd, int level, int name, const void *val, socklen_t len,
		  const char *what)
{
	if (setsockopt(fd, level, name, val, len) < 0)
		return fail(what);
	return 0;
}

static int set_int(int fd, int level, int name, int val, const char *what)
{
	return setopt(fd, level, name, &val, sizeof(val), what);
}

static struct sockaddr_in loopback(uint16_t port)
{
	struct sockaddr_in a;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons(port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

/* The byte at stream offset i: a pattern that a lost, doubled or reordered
 * segment cannot reproduce at its new place. */
static unsigned char pattern(uint32_t salt, size_t i)
{
	return (unsigned char)((i * 2654435761u + salt) >> 13);
}

static int send_stream(int fd, uint32_t salt)
{
	unsigned char buf[8192];
	size_t off = 0;

	while (off < STREAM_BYTES) {
		size_t n = sizeof(buf), i;
		ssize_t w;

		if (n > STREAM_BYTES - off)
			n = STREAM_BYTES - off;
		for (i = 0; i < n; i++)
			buf[i] = pattern(salt, off + i);
		w = write(fd, buf, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return fail("write");
		}
		off += (size_t)w;
	}
	if (shutdown(fd, SHUT_WR) < 0)
		return fail("shutdown");
	return 0;
}

/* Reads to EOF; the stream must be exactly what send_stream(salt) sent. */
static int recv_stream(int fd, uint32_t salt)
{
	unsigned char buf[8192];
	size_t off = 0;

	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return fail("read");
		}
		if (r == 0)
			break;
		for (ssize_t i = 0; i < r; i++) {
			if (off + (size_t)i >= STREAM_BYTES ||
			    buf[i] != pattern(salt, off + (size_t)i)) {
				fprintf(stderr, "tcp-seq-wrap: byte %zu of the stream differs\n",
					off + (size_t)i);
				return -1;
			}
		}
		off += (size_t)r;
	}
	if (off != STREAM_BYTES) {
		fprintf(stderr, "tcp-seq-wrap: got %zu bytes, sent %u\n", off, STREAM_BYTES);
		return -1;
	}
	return 0;
}

/* a sends a stream to b while b sends one to a, in two processes; then both
 * close. */
static int exchange(int a, int b)
{
	pid_t pid = fork();
	int st, rc = 0;

	if (pid < 0)
		return fail("fork");
	if (pid == 0) {
		close(b);
		_exit(send_stream(a, 1) || recv_stream(a, 2) ? 1 : 0);
	}
	if (send_stream(b, 2) || recv_stream(b, 1))
		rc = -1;
	close(b);
	if (waitpid(pid, &st, 0) < 0)
		return fail("waitpid");
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		rc = -1;
	close(a);
	return rc;
}

/* Repair mode on a closed socket: both queues' sequence numbers. */
static int repair_seqs(int fd, uint32_t snd, uint32_t rcv)
{
	if (set_int(fd, IPPROTO_TCP, TCP_REPAIR, TCP_REPAIR_ON, "TCP_REPAIR on") ||
	    set_int(fd, IPPROTO_TCP, TCP_REPAIR_QUEUE, TCP_SEND_QUEUE, "TCP_REPAIR_QUEUE send") ||
	    set_int(fd, IPPROTO_TCP, TCP_QUEUE_SEQ, (int)snd, "TCP_QUEUE_SEQ send"))
		return -1;
	if (rcv && (set_int(fd, IPPROTO_TCP, TCP_REPAIR_QUEUE, TCP_RECV_QUEUE,
			    "TCP_REPAIR_QUEUE recv") ||
		    set_int(fd, IPPROTO_TCP, TCP_QUEUE_SEQ, (int)rcv, "TCP_QUEUE_SEQ recv")))
		return -1;
	return set_int(fd, IPPROTO_TCP, TCP_REPAIR_QUEUE, TCP_NO_QUEUE, "TCP_REPAIR_QUEUE none");
}

/* The next sequence number fd sends, read in repair mode: only on an
 * established socket with nothing in flight (in repair mode a send is
 * taken as done without going out). */
static int send_seq(int fd, uint32_t *seq)
{
	socklen_t len = sizeof(*seq);

	if (set_int(fd, IPPROTO_TCP, TCP_REPAIR, TCP_REPAIR_ON, "TCP_REPAIR on") ||
	    set_int(fd, IPPROTO_TCP, TCP_REPAIR_QUEUE, TCP_SEND_QUEUE, "TCP_REPAIR_QUEUE send"))
		return -1;
	if (getsockopt(fd, IPPROTO_TCP, TCP_QUEUE_SEQ, seq, &len) < 0)
		return fail("getsockopt TCP_QUEUE_SEQ");
	return set_int(fd, IPPROTO_TCP, TCP_REPAIR, TCP_REPAIR_OFF, "TCP_REPAIR off");
}

/* 1: a real handshake whose client starts below 2^32. */
static int handshake(uint16_t port)
{
	struct sockaddr_in sa = loopback(port);
	uint32_t seq;
	int l, c, s;

	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0)
		return fail("socket");
	if (set_int(l, SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR") ||
	    bind(l, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(l, 1) < 0)
		return fail("listen");
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0)
		return fail("socket");
	if (repair_seqs(c, 0u - BELOW_WRAP, 0) ||
	    set_int(c, IPPROTO_TCP, TCP_REPAIR, TCP_REPAIR_OFF, "TCP_REPAIR off"))
		return -1;
	if (connect(c, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return fail("connect");
	s = accept(l, NULL, NULL);
	if (s < 0)
		return fail("accept");
	close(l);
	/* the SYN took the initial number, so the data starts one above it */
	if (send_seq(c, &seq))
		return -1;
	if (seq != 1u - BELOW_WRAP) {
		fprintf(stderr, "tcp-seq-wrap: the client's data starts at %u, not at 2^32 - %u\n",
			seq, BELOW_WRAP - 1);
		return -1;
	}
	return exchange(c, s);
}

/* One end of a restored connection local -> peer, established without a
 * handshake, with the windows a handshake would have given. */
static int restored(uint16_t local, uint16_t peer, uint32_t snd, uint32_t rcv)
{
	struct sockaddr_in la = loopback(local), pa = loopback(peer);
	struct tcp_repair_opt opts[] = {
		{ TCPOPT_MAXSEG, 65483 },
		{ TCPOPT_WINDOW, 7 | (7 << 16) },
	};
	struct tcp_repair_window w = {
		.snd_wl1 = rcv, .snd_wnd = 65535 << 7, .max_window = 65535 << 7,
		.rcv_wnd = 65535 << 7, .rcv_wup = rcv,
	};
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return fail("socket");
	if (repair_seqs(fd, snd, rcv))
		return -1;
	if (bind(fd, (struct sockaddr *)&la, sizeof(la)) < 0)
		return fail("bind (repair)");
	if (connect(fd, (struct sockaddr *)&pa, sizeof(pa)) < 0)
		return fail("connect (repair)");
	if (setopt(fd, IPPROTO_TCP, TCP_REPAIR_OPTIONS, opts, sizeof(opts), "TCP_REPAIR_OPTIONS") ||
	    setopt(fd, IPPROTO_TCP, TCP_REPAIR_WINDOW, &w, sizeof(w), "TCP_REPAIR_WINDOW"))
		return -1;
	return fd;
}

/* 2: both ends restored, both directions below 2^32. */
static int restored_pair(uint16_t pa, uint16_t pb)
{
	uint32_t ab = 0u - BELOW_WRAP, ba = 0u - 2 * BELOW_WRAP;
	int a = restored(pa, pb, ab, ba), b;

	if (a < 0)
		return -1;
	b = restored(pb, pa, ba, ab);
	if (b < 0)
		return -1;
	/* leaving repair mode sends a window probe, as after a restore */
	if (set_int(a, IPPROTO_TCP, TCP_REPAIR, TCP_REPAIR_OFF, "TCP_REPAIR off") ||
	    set_int(b, IPPROTO_TCP, TCP_REPAIR, TCP_REPAIR_OFF, "TCP_REPAIR off"))
		return -1;
	return exchange(a, b);
}

int tcp_seq_wrap_main(void)
{
	if (handshake(9100)) {
		fprintf(stderr, "tcp-seq-wrap: the handshake stream failed\n");
		return 1;
	}
	if (restored_pair(9101, 9102)) {
		fprintf(stderr, "tcp-seq-wrap: the restored pair failed\n");
		return 1;
	}
	printf("tcp-seq-wrap: 2 connections, %u bytes each way, across 2^32\n", STREAM_BYTES);
	return 0;
}
