/* Input of scripts/check-distributed.sh: one check an ignorelist entry turns
 * off (wi_listed, a real wrap), one the plugin proves idiomatic (wi_idiom)
 * and one it keeps (wi_kept); the test moves the list's entry from
 * wi_listed to wi_kept, which changes the object. */
unsigned int wi_listed(unsigned int a, unsigned int b);
unsigned int wi_idiom(unsigned int a, unsigned int b);
unsigned int wi_kept(unsigned int a, unsigned int b);

unsigned int wi_listed(unsigned int a, unsigned int b)
{
	return a * b + 1;
}

unsigned int wi_idiom(unsigned int a, unsigned int b)
{
	return a + b < a;
}

unsigned int wi_kept(unsigned int a, unsigned int b)
{
	return a - b;
}
