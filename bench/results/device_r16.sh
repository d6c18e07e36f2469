#!/bin/bash
# device_r16.sh: how device_r16.txt was made (issue 19, round 16), run from the repository
# root on the device with builds under .carry/NAME/warplab (base: 1e7ff9d, round 15's last;
# new: this round's last) and their shared libraries in .carry. The steps are device_r13.sh's:
#   series  round 10's series (two workers against one, saxpy and a reduction), 50 turns,
#           base and new, cores 2,3 (run five times for device_r16.txt)
exec bash "$(dirname "$0")/device_r13.sh" "$@"
