//! The bytes records and segments are made of: a [`Writer`] and a [`Reader`] of LEB128 varints and
//! length-prefixed strings, bytes and options, so the codec above reads as the record's layout.

pub(super) struct Writer(pub(super) Vec<u8>);

impl Writer {
    /// LEB128.
    pub(super) fn uint(&mut self, mut value: u64) {
        while value >= 0x80 {
            self.0.push((value as u8) | 0x80);
            value >>= 7;
        }
        self.0.push(value as u8);
    }

    /// Zigzag, then LEB128.
    pub(super) fn int(&mut self, value: i64) {
        self.uint(((value << 1) ^ (value >> 63)) as u64);
    }

    pub(super) fn bytes(&mut self, bytes: &[u8]) {
        self.uint(bytes.len() as u64);
        self.0.extend_from_slice(bytes);
    }

    pub(super) fn str(&mut self, text: &str) {
        self.bytes(text.as_bytes());
    }

    pub(super) fn opt(&mut self, text: Option<&str>) {
        match text {
            None => self.0.push(0),
            Some(text) => {
                self.0.push(1);
                self.str(text);
            }
        }
    }

    pub(super) fn strs(&mut self, texts: &[String]) {
        self.uint(texts.len() as u64);
        for text in texts {
            self.str(text);
        }
    }
}

pub(super) struct Reader<'a>(pub(super) &'a [u8]);

impl<'a> Reader<'a> {
    pub(super) fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if self.0.len() < n {
            return Err("the exchange record ends early".into());
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    pub(super) fn uint(&mut self) -> Result<u64, String> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.take(1)?[0];
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err("a number in the exchange record is too long".into())
    }

    pub(super) fn int(&mut self) -> Result<i64, String> {
        let raw = self.uint()?;
        Ok(((raw >> 1) as i64) ^ -((raw & 1) as i64))
    }

    pub(super) fn len(&mut self) -> Result<usize, String> {
        let n = usize::try_from(self.uint()?).map_err(|e| e.to_string())?;
        if n > self.0.len() {
            return Err("a count in the exchange record exceeds the record".into());
        }
        Ok(n)
    }

    pub(super) fn flag(&mut self) -> Result<bool, String> {
        match self.take(1)?[0] {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(format!("a flag in the exchange record is {other}")),
        }
    }

    pub(super) fn bytes(&mut self) -> Result<&'a [u8], String> {
        let n = self.len()?;
        self.take(n)
    }

    pub(super) fn str(&mut self) -> Result<String, String> {
        std::str::from_utf8(self.bytes()?)
            .map(str::to_owned)
            .map_err(|e| e.to_string())
    }

    pub(super) fn opt(&mut self) -> Result<Option<String>, String> {
        if self.flag()? {
            self.str().map(Some)
        } else {
            Ok(None)
        }
    }

    pub(super) fn strs(&mut self) -> Result<Vec<String>, String> {
        let count = self.len()?;
        let mut texts = Vec::with_capacity(count.min(256));
        for _ in 0..count {
            texts.push(self.str()?);
        }
        Ok(texts)
    }
}
