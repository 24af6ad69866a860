"""The wheel's packages, found rather than listed: every package under viewer/, and the two data
packages that stay at the repository's top (profiles/ and resources/, mapped by pyproject.toml's
package-dir), which a search of viewer/ cannot find. Everything else of the build is in
pyproject.toml."""

from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["viewer", "viewer.*"]), "viewer.profiles",
                "viewer.resources"])
