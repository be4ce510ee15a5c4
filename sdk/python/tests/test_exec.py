"""`exec`: a program without a shell, its output, its exit code; a timeout ends it."""
import sys
import unittest

from pig_ext.exec import exec_command


class Exec(unittest.IsolatedAsyncioTestCase):
    async def test_output_and_exit_code(self):
        r = await exec_command(sys.executable, ["-c", "import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)"])
        self.assertEqual((r.stdout, r.stderr, r.code, r.killed), ("out\n", "err\n", 3, False))

    async def test_no_shell_and_a_missing_program(self):
        r = await exec_command("echo", ["$HOME", "*"])
        self.assertEqual(r.stdout, "$HOME *\n")
        missing = await exec_command("/no/such/program")
        self.assertEqual((missing.code, missing.killed), (1, False))
        self.assertIn("No such file", missing.stderr)

    async def test_a_timeout_kills_the_program(self):
        # The timeout must outlast the child's start on a loaded machine (it prints before it
        # sleeps); -S skips site-packages so that start is short.
        r = await exec_command(sys.executable, ["-S", "-c", "import time; print('started', flush=True); time.sleep(60)"], timeout=3)
        self.assertTrue(r.killed)
        self.assertEqual(r.stdout, "started\n")


if __name__ == "__main__":
    unittest.main()
