/* runtime-cost.test: a stand-in vmlinux with wrap-check call sites. */
void __ubsan_handle_add_overflow(void) {}
void __ubsan_handle_sub_overflow(void) {}
void _start(void)
{
#if SITES > 0
	__ubsan_handle_add_overflow();
#endif
#if SITES > 1
	__ubsan_handle_add_overflow();
	__ubsan_handle_sub_overflow();
#endif
}
