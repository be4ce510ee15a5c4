//! Who listens on the socket pig named: the kernel's record of the peer (docs/extension-protocol.md
//! §2), checked before the token or anything else is written. Someone else able to bind that path
//! must not get the token, nor what the extension registers.

use std::os::unix::io::AsRawFd;
use std::os::unix::net::UnixStream;

/// The exit status of an extension that refused the socket it was given (sysexits' EX_NOPERM).
pub const EXIT_HOST_REFUSED: i32 = 77;

extern "C" {
    fn getuid() -> u32;
}

#[cfg(target_os = "linux")]
fn peer_uid(stream: &UnixStream) -> std::io::Result<u32> {
    #[repr(C)]
    struct Ucred {
        pid: i32,
        uid: u32,
        gid: u32,
    }
    extern "C" {
        fn getsockopt(fd: i32, level: i32, name: i32, value: *mut Ucred, len: *mut u32) -> i32;
    }
    const SOL_SOCKET: i32 = 1;
    const SO_PEERCRED: i32 = 17;
    let mut cred = Ucred { pid: 0, uid: 0, gid: 0 };
    let mut len = std::mem::size_of::<Ucred>() as u32;
    if unsafe { getsockopt(stream.as_raw_fd(), SOL_SOCKET, SO_PEERCRED, &mut cred, &mut len) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(cred.uid)
}

#[cfg(any(target_os = "macos", target_os = "freebsd"))]
fn peer_uid(stream: &UnixStream) -> std::io::Result<u32> {
    extern "C" {
        fn getpeereid(fd: i32, uid: *mut u32, gid: *mut u32) -> i32;
    }
    let (mut uid, mut gid) = (0u32, 0u32);
    if unsafe { getpeereid(stream.as_raw_fd(), &mut uid, &mut gid) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(uid)
}

#[cfg(not(any(target_os = "linux", target_os = "macos", target_os = "freebsd")))]
fn peer_uid(_stream: &UnixStream) -> std::io::Result<u32> {
    Err(std::io::Error::new(std::io::ErrorKind::Unsupported, "no peer credentials on this platform"))
}

/// Why the socket's peer is not to be trusted, or None when it runs as this process's user.
pub fn host_problem(stream: &UnixStream) -> Option<String> {
    let own = unsafe { getuid() };
    match peer_uid(stream) {
        Err(e) => Some(format!("its peer cannot be checked: {e}")),
        Ok(uid) => uid_problem(uid, own),
    }
}

pub fn uid_problem(peer: u32, own: u32) -> Option<String> {
    if peer == own {
        None
    } else {
        Some(format!("its peer runs as uid {peer}, not {own}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_peer_of_this_user_is_trusted_and_another_uid_refused() {
        let (a, _b) = UnixStream::pair().unwrap();
        assert_eq!(host_problem(&a), None);
        assert_eq!(uid_problem(1001, 0), Some("its peer runs as uid 1001, not 0".to_string()));
    }
}
