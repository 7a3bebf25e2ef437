/* The reproducers as a program of their own: findings [--list] [CASE...] */
#include "findings.h"

int main(int argc, char **argv)
{
	return findings_main(argc, argv);
}
