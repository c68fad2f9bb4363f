# Sourced by the .ci test scripts that set up daemons of their own (sshd,
# slurmctld, munged): installs Debian packages quietly, without letting them
# start their daemons (a policy-rc.d that exits 101, added only if none is
# there, and removed again). Needs root.
apt_install_quietly() {
  local made_policy=0
  [[ -e /usr/sbin/policy-rc.d ]] || { printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d; made_policy=1; }
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
  ((made_policy)) && rm -f /usr/sbin/policy-rc.d
  return 0
}
