//! A small writer of POSIX ustar archives: a folder of a few text files in one download, which `tar -xf`
//! unpacks on Linux, macOS and Windows 10 or newer alike (a browser cannot save a folder). Only what the
//! workbench hands out needs: one directory and the regular files in it, names under 100 bytes.

/// One archive, written entry by entry.
pub struct Archive {
    bytes: Vec<u8>,
    /// Seconds since the epoch every entry is dated (tar warns of a time of 0).
    mtime: u64,
}

const BLOCK: usize = 512;

impl Archive {
    pub fn new(mtime: u64) -> Archive {
        Archive {
            bytes: Vec::new(),
            mtime,
        }
    }

    /// Adds a directory (`name` without the trailing slash).
    pub fn directory(&mut self, name: &str) {
        self.header(&format!("{name}/"), 0o755, 0, b'5');
    }

    /// Adds a regular file with these contents and permissions.
    pub fn file(&mut self, name: &str, mode: u32, contents: &[u8]) {
        self.header(name, mode, contents.len(), b'0');
        self.bytes.extend_from_slice(contents);
        self.pad();
    }

    /// The archive, closed with its two empty blocks.
    pub fn finish(mut self) -> Vec<u8> {
        self.bytes.extend_from_slice(&[0; 2 * BLOCK]);
        self.bytes
    }

    fn pad(&mut self) {
        let rest = self.bytes.len() % BLOCK;
        if rest != 0 {
            self.bytes.resize(self.bytes.len() + BLOCK - rest, 0);
        }
    }

    fn header(&mut self, name: &str, mode: u32, size: usize, kind: u8) {
        assert!(
            name.len() < 100 && name.is_ascii(),
            "an archive entry's name is short ASCII: {name}"
        );
        let mut header = [0u8; BLOCK];
        let mut put = |at: usize, value: &[u8]| header[at..at + value.len()].copy_from_slice(value);
        put(0, name.as_bytes());
        put(100, format!("{mode:07o}\0").as_bytes());
        put(108, b"0000000\0"); // uid
        put(116, b"0000000\0"); // gid
        put(124, format!("{size:011o}\0").as_bytes());
        put(136, format!("{:011o}\0", self.mtime).as_bytes());
        put(148, b"        "); // the checksum counts its own field as spaces
        put(156, &[kind]);
        put(257, b"ustar\0");
        put(263, b"00");
        let checksum: u32 = header.iter().map(|&b| u32::from(b)).sum();
        header[148..156].copy_from_slice(format!("{checksum:06o}\0 ").as_bytes());
        self.bytes.extend_from_slice(&header);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The entries of an archive as a reader finds them: name, type, size, contents.
    fn read(bytes: &[u8]) -> Vec<(String, u8, Vec<u8>)> {
        let mut entries = Vec::new();
        let mut at = 0;
        while at + BLOCK <= bytes.len() && bytes[at..at + BLOCK].iter().any(|&b| b != 0) {
            let header = &bytes[at..at + BLOCK];
            let field = |from: usize, to: usize| {
                String::from_utf8(header[from..to].to_vec())
                    .unwrap()
                    .trim_end_matches(['\0', ' '])
                    .to_owned()
            };
            let mut counted = header.to_vec();
            counted[148..156].copy_from_slice(b"        ");
            let sum: u32 = counted.iter().map(|&b| u32::from(b)).sum();
            assert_eq!(u32::from_str_radix(&field(148, 154), 8).unwrap(), sum);
            assert_eq!(&header[257..263], b"ustar\0");
            let size = usize::from_str_radix(&field(124, 135), 8).unwrap();
            at += BLOCK;
            entries.push((field(0, 100), header[156], bytes[at..at + size].to_vec()));
            at += size.div_ceil(BLOCK) * BLOCK;
        }
        assert_eq!(bytes.len(), at + 2 * BLOCK, "two empty blocks close it");
        entries
    }

    #[test]
    fn a_folder_of_files_reads_back_with_sizes_checksums_and_padding() {
        let mut archive = Archive::new(1_780_000_000);
        archive.directory("persona");
        archive.file("persona/cert.pem", 0o644, b"-----BEGIN CERTIFICATE-----\n");
        archive.file("persona/empty", 0o600, b"");
        archive.file("persona/block", 0o600, &[b'x'; BLOCK]);
        let bytes = archive.finish();
        assert_eq!(bytes.len() % BLOCK, 0);
        let entries = read(&bytes);
        let names: Vec<_> = entries
            .iter()
            .map(|(n, k, c)| (n.as_str(), *k, c.len()))
            .collect();
        assert_eq!(
            names,
            [
                ("persona/", b'5', 0),
                ("persona/cert.pem", b'0', 28),
                ("persona/empty", b'0', 0),
                ("persona/block", b'0', BLOCK)
            ]
        );
        assert_eq!(entries[1].2, b"-----BEGIN CERTIFICATE-----\n");
    }
}
