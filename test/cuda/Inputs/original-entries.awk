# Prints the PTX of every kernel (.entry) and device function (.func) that
# is not an SMC variant (name ending in __smc or __slice): what must be the
# same with and without the plugin.  Left out: comments, blank lines and
# .shared declarations (LLVM declares a __shared__ variable inside the one
# function that uses it, at module scope once the variants use it too).
/^(\.visible |\.weak )?\.(entry|func) / { p = ($0 !~ /__(smc|slice)\(/) }
/^(\.visible |\.weak |\.extern )?\.(global|shared|const) / { p = 0 }
/^[ \t]*\/\// { next }
/^[ \t]*$/ { next }
/^[ \t]*\.shared / { next }
p
