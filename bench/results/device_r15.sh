#!/bin/bash
# device_r15.sh: how device_r15.txt was made (issue 19, round 15), run from the repository
# root on the device with builds under .carry/NAME/warplab (base: 00f7cf2, round 14's last;
# new: this round's last) and their shared libraries in .carry. The steps are device_r13.sh's:
#   gpu     round 11's step (`warplab run 07 --backend gpu`, tests/gpu/prove.sh) with the new
#           build
#   series  round 10's series (two workers against one, saxpy and a reduction), 50 turns,
#           base and new, cores 2,3 (run five times for device_r15.txt)
exec bash "$(dirname "$0")/device_r13.sh" "$@"
