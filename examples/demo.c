/* A few wrap tests and real wraps, for `make boot`'s plugin demo and the
 * README's usage example. */
typedef unsigned long size_t;
typedef long long loff_t;
void use(size_t);

/* mm/mmap.c remap_file_pages(): intentional, handled. */
int pgoff_wraps(size_t pgoff, size_t size)
{
	if (pgoff + (size >> 12) < pgoff)
		return -22;
	return 0;
}

/* fs/remap_range.c generic_remap_checks(): two tests in one condition. */
int remap_checks(loff_t pos_in, loff_t pos_out, unsigned long long count)
{
	if (pos_in + count < pos_in || pos_out + count < pos_out)
		return -22;
	return 0;
}

/* A bounds test alone: a real wrap goes unnoticed here, keep the check. */
int in_bounds(size_t off, size_t len, size_t limit)
{
	return off + len <= limit;
}

/* An allocation size: keep. */
size_t bytes(size_t n) { return n * sizeof(long); }
