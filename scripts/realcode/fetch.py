"""Third-party sources for scripts/realcode-run, fetched at run time from the
package registries into a cache and never committed.

Invariant: a cache entry is complete when its `.complete` marker exists; an
interrupted fetch leaves no marker, so the next run starts that entry over.
Every function returns the directory holding the sources, or raises Missing
with the package to install.
"""
import glob
import os
import shutil
import subprocess
import tarfile

GCC_TARBALLS = "/usr/src/gcc-12/gcc-*.tar.xz"


class Missing(Exception):
    """A package (Debian or npm) that the suite needs is not available."""


def _complete(path):
    return os.path.exists(os.path.join(path, ".complete"))


def _mark(path):
    open(os.path.join(path, ".complete"), "w").close()


def npm_package(cache, spec):
    """Unpacks the npm package SPEC (name@version) into CACHE/npm/SPEC with
    `npm pack` (no install scripts run); returns the package directory."""
    dest = os.path.join(cache, "npm", spec.replace("/", "_"))
    if _complete(dest):
        return os.path.join(dest, "package")
    if not shutil.which("npm"):
        raise Missing("npm (apt-get install npm) to fetch " + spec)
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    p = subprocess.run(["npm", "pack", spec, "--silent", "--pack-destination", dest],
                       capture_output=True, text=True, timeout=600)
    tgz = glob.glob(os.path.join(dest, "*.tgz"))
    if p.returncode != 0 or len(tgz) != 1:
        raise Missing("npm pack %s failed: %s" % (spec, (p.stderr or p.stdout).strip()[-300:]))
    with tarfile.open(tgz[0]) as t:
        t.extractall(dest)
    _mark(dest)
    return os.path.join(dest, "package")


def gcc_source(cache, members):
    """Extracts the MEMBERS (paths under the top directory, e.g. "zlib/") of
    Debian gcc-12-source's tarball into CACHE/gcc once; returns the top
    directory.  The tarball is read once for all members."""
    tarballs = sorted(glob.glob(GCC_TARBALLS))
    if not tarballs:
        raise Missing("%s: install the Debian package gcc-12-source" % GCC_TARBALLS)
    base = os.path.basename(tarballs[-1])[:-len(".tar.xz")]
    top = base.replace("-dfsg", "")
    dest = os.path.join(cache, "gcc")
    if _complete(dest):
        return os.path.join(dest, top)
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    wanted = [top + "/" + m + ("*" if m.endswith("/") else "") for m in members]
    subprocess.run(["tar", "xJf", tarballs[-1], "-C", dest, "--wildcards"] + wanted,
                   check=True, timeout=900)
    _mark(dest)
    return os.path.join(dest, top)


def configured(cache, name, srcdir, env=None):
    """Runs SRCDIR/configure once in CACHE/NAME (an autoconf build directory,
    for the generated config.h); returns that directory."""
    dest = os.path.join(cache, name)
    if _complete(dest):
        return dest
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    p = subprocess.run([os.path.join(srcdir, "configure")], cwd=dest, capture_output=True,
                       text=True, env=env, timeout=900)
    if p.returncode != 0:
        raise Missing("%s/configure failed (see %s/config.log)" % (srcdir, dest))
    _mark(dest)
    return dest
