# ptxas -v output -> one line per kernel and architecture:
#   sm_90 kernel  regs=128 smem=24576 stack=0 spill_st=0 spill_ld=0
/Compiling entry function/ { match($0, /'[^']+'/); fn = substr($0, RSTART + 1, RLENGTH - 2);
                             match($0, /sm_[0-9a-z]+/); arch = substr($0, RSTART, RLENGTH) }
/bytes stack frame/       { stack = $1; spst = $5; spld = $9 }
/Used [0-9]+ registers/   { match($0, /Used [0-9]+/); regs = substr($0, RSTART + 5, RLENGTH - 5);
                            smem = 0; if (match($0, /[0-9]+ bytes smem/)) smem = substr($0, RSTART, RLENGTH - 11);
                            if (fn != "") printf "%s %s  regs=%s smem=%s stack=%s spill_st=%s spill_ld=%s\n",
                                                 arch, fn, regs, smem, stack, spst, spld; fn = "" }
