"""The in-tree build backend packs the SDK without any package from an index."""
import os
import sys
import tarfile
import tempfile
import unittest
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_build"))
import pig_ext_build  # noqa: E402


class Backend(unittest.TestCase):
    def test_the_wheel_holds_every_module_and_a_record_of_them(self):
        with tempfile.TemporaryDirectory() as d:
            name = pig_ext_build.build_wheel(d)
            self.assertEqual(name, "pig_ext-0.1.0-py3-none-any.whl")
            with zipfile.ZipFile(os.path.join(d, name)) as wheel:
                names = set(wheel.namelist())
                record = wheel.read("pig_ext-0.1.0.dist-info/RECORD").decode()
        modules = {f"pig_ext/{n}" for n in os.listdir(pig_ext_build.PACKAGE) if n.endswith(".py")}
        self.assertIn("pig_ext/extension.py", modules)
        self.assertLessEqual(modules, names)
        for module in modules:
            self.assertIn(f"{module},sha256=", record)
        self.assertEqual(pig_ext_build.get_requires_for_build_wheel(), [])

    def test_the_version_setting_is_the_wheels_and_the_packages_and_a_bad_one_is_named(self):
        with tempfile.TemporaryDirectory() as d:
            name = pig_ext_build.build_wheel(d, {"version": "2.0.0rc1"})
            self.assertEqual(name, "pig_ext-2.0.0rc1-py3-none-any.whl")
            with zipfile.ZipFile(os.path.join(d, name)) as wheel:
                self.assertIn('__version__ = "2.0.0rc1"\n', wheel.read("pig_ext/__init__.py").decode())
                self.assertIn("Version: 2.0.0rc1\n", wheel.read("pig_ext-2.0.0rc1.dist-info/METADATA").decode())
            with self.assertRaisesRegex(ValueError, r"config setting version='2\.0\.0-rc\.1': not a version in PEP 440's normal form"):
                pig_ext_build.build_wheel(d, {"version": "2.0.0-rc.1"})

    def test_the_sdist_builds_the_same_version_again(self):
        with tempfile.TemporaryDirectory() as d:
            name = pig_ext_build.build_sdist(d, {"version": "3.1.4"})
            self.assertEqual(name, "pig_ext-3.1.4.tar.gz")
            with tarfile.open(os.path.join(d, name)) as sdist:
                pyproject = sdist.extractfile("pig_ext-3.1.4/pyproject.toml").read().decode()
                init = sdist.extractfile("pig_ext-3.1.4/pig_ext/__init__.py").read().decode()
                names = set(sdist.getnames())
        self.assertIn('\nversion = "3.1.4"\n', pyproject)
        self.assertIn('__version__ = "3.1.4"\n', init)
        self.assertLessEqual({"pig_ext-3.1.4/PKG-INFO", "pig_ext-3.1.4/_build/pig_ext_build.py", "pig_ext-3.1.4/README.md"}, names)


if __name__ == "__main__":
    unittest.main()
