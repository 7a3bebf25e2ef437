//===- Liveness.h - Which checks each ignorelist entry decides -------------===//
//
// Part of wrapidiom. `wrap-ignorelist lint --remarks DIR` reads the
// wrap-idiom optimization records (*.opt.yaml) of kernels built with the
// plugin and the lists (qemu-run writes them beside every object), and
// counts, per entry, the checks it decided: removed (or, for a `=sanitize`
// entry, kept). An entry that decided nothing in any of the trees is dead:
// it removes no check of the kernels the project builds, and would hide any
// future wrap where it matches. The plugin records an entry only where no
// idiom proves the check, so a count is what the entry alone removes.
// `# lint: kernel NAME` above an entry names the kernel it is for when make
// check builds no such kernel (qemu-run's tree linux-6.12-NAME; tiny's is
// linux-6.12): it is checked only when that tree is read.
//
//===----------------------------------------------------------------------===//
#ifndef WRAPIDIOM_WRAP_IGNORELIST_LIVENESS_H
#define WRAPIDIOM_WRAP_IGNORELIST_LIVENESS_H

#include "Common.h"
#include "SCLFile.h"

namespace wil {

/// Count the decisions of every entry of Lists in the records under Dirs,
/// print one line per entry (FILE:LINE, count, entry) to OS, and report
/// each entry that decided nothing, or a directory without records, to D.
void checkLiveness(llvm::ArrayRef<std::unique_ptr<SCLFile>> Lists,
                   llvm::ArrayRef<std::string> Dirs, Diagnostics &D,
                   llvm::raw_ostream &OS);

/// "`fun:x` (/path/to/list.scl:12) ..." -> {"list.scl", 12}; {"", 0} if the
/// text is not in that form.
std::pair<std::string, unsigned> entryLocation(llvm::StringRef Text);

} // namespace wil

#endif
