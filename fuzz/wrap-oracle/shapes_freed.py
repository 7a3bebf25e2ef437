"""The `freed` family of shapes.py: a counter updated on a heap object
that is freed right after (issue 24; dead-value, MemoryFacts.h)."""
from lang import C, V, bin_, cmp


class FreedFamily:
    """Gen's freed family (a mixin: it uses Gen's pick(), chance() and
    self.r)."""

    def freed(self):
        """A counter updated on a heap object that is freed right after
        (issue 24, `o->stat += n; kfree(o);`, here with free()): nobody
        reads it after the free (render.py: f_* are fields of o, q_* of q,
        k_* the same through o->kid). Variations that make it a real wrap
        or something the plugin cannot prove: the counter read, o passed to
        a call, an unknown call, freed on one path only (the other reads
        it, or keeps o), another object freed first (the counter read
        after), the sum also kept in a local and stored or sunk, the field
        of o's child q written and q read after o is freed."""
        ty = self.pick('u32', 'u64')
        op = self.pick('+', '+', '-')
        params = [(ty, 'a'), (ty, 'b'), (ty, 'lim')]
        target = self.pick('f_s', 'f_s', 'f_s', 'k_s')
        read = 'q_s' if target == 'k_s' else 'f_s'
        body = [('decl', ty, 'f_t', V('lim')), ('decl', ty, target, V('a'))]
        direct = self.chance(0.75)
        if direct:
            body.append(('decl', ty, target, bin_(op, ty, V(read), V('b'))))
        else:
            body.append(('decl', ty, 's', bin_(op, ty, V(read), V('b'))))
            body.append(('decl', ty, target, V('s')))
            if self.chance(0.5):  # the sum also goes elsewhere
                body.append(self.pick(('store', V('s')), ('sink', V('s'))))
        for _ in range(self.r.randint(0, 2)):
            body.append(self.pick(
                ('decl', ty, 'f_t', V('b')),
                ('decl', ty, 'f_t', bin_('&', ty, V('f_t'), C(255, ty))),
                ('sink', V('lim')),
                ('sink', V(read)),
                ('store', V(read)),
                ('release',),
                ('if', cmp('>', V('a'), V('lim')),
                 [('free', 'o'), ('ret', C(1, 'i32'))], []),
            ))
        end = self.pick('free', 'free', 'free', 'both', 'one', 'one_read',
                        'other', 'other_read')
        if end == 'free':
            body.append(('free', 'o'))
        elif end == 'both':
            body.append(('if', cmp('<', V('b'), V('lim')), [('free', 'o')],
                         [('decl', ty, 'f_t', C(0, ty)), ('free', 'o')]))
        elif end == 'one':
            body.append(('if', cmp('<', V('b'), V('lim')), [('free', 'o')],
                         []))
        elif end == 'one_read':
            body.append(('if', cmp('<', V('b'), V('lim')), [('free', 'o')],
                         [('sink', V(read)), ('free', 'o')]))
        else:  # another object freed first
            if target == 'f_s':
                body.append(('free', 'q'))
                if end == 'other_read':
                    body.append(('sink', V('f_s')))
            body.append(('free', 'o'))
        if target == 'k_s' and self.chance(0.5):
            body.append(('sink', V('q_s')))  # the child outlives o
        body.append(('ret', C(0, 'i32')))
        return params, body
