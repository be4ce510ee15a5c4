"""The in-tree build backend packs the SDK without any package from an index."""
import os
import sys
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


if __name__ == "__main__":
    unittest.main()
