//! Positional reads (the traffic log's chunks): `pread` on Unix; on Windows `seek_read`, which also moves
//! the handle's cursor. Callers open a handle per read and never rely on its cursor, so either serves.

use std::fs::File;
use std::io;

/// Fills `buf` from `file` at `offset`; a file that ends first is `UnexpectedEof`.
pub fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
    }
    #[cfg(windows)]
    {
        use std::os::windows::fs::FileExt;
        let (mut done, mut at) = (0, offset);
        while done < buf.len() {
            match file.seek_read(&mut buf[done..], at) {
                Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
                Ok(n) => {
                    done += n;
                    at += n as u64;
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn reads_at_an_offset_and_a_short_file_is_eof() {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(b"0123456789").unwrap();
        let mut buf = [0; 4];
        read_exact_at(&file, &mut buf, 3).unwrap();
        assert_eq!(&buf, b"3456");
        let error = read_exact_at(&file, &mut buf, 8).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::UnexpectedEof);
    }
}
