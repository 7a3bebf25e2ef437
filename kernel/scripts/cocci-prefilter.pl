#!/usr/bin/perl
# Print the files that may contain "X + Y <cmp> X"-like tests: some word
# is followed, within one statement, by '+', a comparison, and the same
# word again (or the comparison comes first). Lines are joined first so
# multi-line conditions are seen. A superset of what the .cocci can match.
use strict; use warnings;
local $/;
for my $f (@ARGV) {
	open(my $fh, '<', $f) or next;
	my $s = <$fh>; close $fh;
	$s =~ s/\s*\n\s*/ /g;
	if ($s =~ /\b(\w+)\b[^;{}]{0,200}?\+[^;{}=+]{0,200}?(?:<|>)=?[^;{}]{0,200}?\b\1\b/ ||
	    $s =~ /\b(\w+)\b[^;{}]{0,200}?(?:<|>)=?[^;{}]{0,200}?\b\1\b[^;{}]{0,200}?\+/) {
		print "$f\n";
	}
}
