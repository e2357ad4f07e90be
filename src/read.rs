//! Reading a file that anyone could have put where hookx looks (a hook file, a host's config,
//! one of hookx's own records in `~/.hookx`) without being held up or swamped by it: regular
//! files only, and never more than a cap.
//!
//! A named pipe (FIFO) or a device in place of a file would make a plain open or read wait for
//! a writer that never comes, and the host waits on `hookx run` until it gives up; a huge file
//! would be read whole. Every reader of such a file goes through here: the file is opened
//! without waiting (`O_NONBLOCK` on Unix, which changes nothing for a regular file), then the
//! opened file's own metadata decides (not a `stat` of the path before it, which a swap could
//! outrun): anything but a regular file is refused, and so is one larger than the cap.

use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;

/// Files larger than this are refused: no hook config, and no record of hookx's, is anywhere
/// near it.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Opens `path` to read without waiting on it, with its metadata; unless it is a regular file,
/// an error, the file closed again without a byte read. Symlinks are followed.
pub fn open(path: &Path) -> io::Result<(File, Metadata)> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // A FIFO opens at once instead of waiting for a writer; a terminal does not become
        // hookx's controlling terminal.
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    let kind = meta.file_type();
    if kind.is_file() {
        return Ok((file, meta));
    }
    if kind.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "is a directory, not a regular file",
        ));
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("is {}, not a regular file", what(&kind)),
    ))
}

/// What a file that is not a regular file or a directory is, for messages.
fn what(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    let _ = kind;
    "a special file"
}

/// The whole of the regular file at `path`, refused (`FileTooLarge`) when it holds more than
/// `limit` bytes: its size is checked before anything is read, and no more than `limit + 1`
/// bytes are read should it grow meanwhile.
pub fn bytes(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let (file, meta) = open(path)?;
    if meta.len() > limit {
        return Err(too_large(&meta.len().to_string(), limit));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(&format!("more than {limit}"), limit));
    }
    Ok(bytes)
}

fn too_large(size: &str, limit: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("is {size} bytes; hookx reads config files up to {limit} bytes"),
    )
}

/// As [`bytes`], as UTF-8 text (`InvalidData` when it is not).
pub fn text(path: &Path, limit: u64) -> io::Result<String> {
    String::from_utf8(bytes(path, limit)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "is not valid UTF-8"))
}

/// What is at `path`, where hookx would write a file whole: `None` where nothing is, the text
/// of a regular file, else an error saying what is there instead (a compiled hook, a script in
/// another encoding, a folder, a link naming nothing). Read as "nothing there", a user's compiled
/// hook under an event's name was replaced by a converted script (attacks row 480).
pub fn existing_text(path: &Path, limit: u64) -> io::Result<Option<String>> {
    match text(path, limit) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => match std::fs::symlink_metadata(path) {
            Ok(_) => Err(io::Error::new(
                io::ErrorKind::NotFound,
                "is a symbolic link to nothing",
            )),
            Err(_) => Ok(None),
        },
        Err(e) => Err(e),
    }
}

/// The first `limit` bytes of the regular file at `path` (all of a smaller one).
pub fn head(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let (file, meta) = open(path)?;
    let mut bytes = Vec::with_capacity(meta.len().min(limit) as usize);
    file.take(limit).read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_read_up_to_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, "abcdef").unwrap();
        assert_eq!(bytes(&path, 6).unwrap(), b"abcdef");
        let e = bytes(&path, 5).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::FileTooLarge);
        assert_eq!(
            e.to_string(),
            "is 6 bytes; hookx reads config files up to 5 bytes"
        );
        assert_eq!(head(&path, 3).unwrap(), b"abc");
        assert_eq!(head(&path, 30).unwrap(), b"abcdef");
        std::fs::write(&path, [0xff]).unwrap();
        assert_eq!(
            text(&path, 6).unwrap_err().kind(),
            io::ErrorKind::InvalidData
        );
        let missing = dir.path().join("missing");
        assert_eq!(
            bytes(&missing, 6).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        assert_eq!(
            bytes(dir.path(), 6).unwrap_err().kind(),
            io::ErrorKind::IsADirectory
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_refused_without_reading() {
        // /dev/zero never ends: reading it would fill memory up to the cap.
        let e = bytes(Path::new("/dev/zero"), MAX_FILE_BYTES).unwrap_err();
        assert_eq!(e.to_string(), "is a character device, not a regular file");
        assert!(head(Path::new("/dev/zero"), 8).is_err());
    }
}
