# Drop the no-wrap flags of GEP instructions whose indices are all zero.
# LangRef: a getelementptr with all-zero indices is always inbounds, so
# these flags mean nothing, and clang sets them differently under
# -fwrapv-pointer (an array's decay to a pointer keeps inbounds there,
# `p->first_field` and `a[0]` do not). Used to compare IR modulo them.
s/getelementptr ((inbounds|nusw|nuw) )+([^,]+, ptr [^,]+(, i(32|64) 0)+)$/getelementptr \3/
