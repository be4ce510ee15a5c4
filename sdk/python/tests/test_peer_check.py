"""The check of the host socket's peer, made before anything is sent."""
import os
import socket
import unittest

from pig_ext.peer_check import host_problem, peer_uid


class PeerCheck(unittest.TestCase):
    def test_a_peer_of_this_user_is_trusted(self):
        a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        with a, b:
            self.assertEqual(peer_uid(a), os.getuid())
            self.assertIsNone(host_problem(a))

    def test_a_peer_of_another_uid_is_refused_naming_both(self):
        a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        with a, b:
            other = os.getuid() + 1
            self.assertEqual(host_problem(a, uid=other), f"its peer runs as uid {os.getuid()}, not {other}")


if __name__ == "__main__":
    unittest.main()
