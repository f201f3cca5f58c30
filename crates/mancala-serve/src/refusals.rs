//! Refusals that hyper makes itself, as the API's JSON errors.
//!
//! A request that hyper cannot read never reaches the routes: hyper answers it on its own,
//! `400 Bad Request` (a malformed request line or header), `414 URI Too Long` or `431 Request
//! Header Fields Too Large`, with an empty body, and closes the connection. It has no hook
//! for that answer, so a connection's stream is wrapped here: a response head with an error
//! status and `content-length: 0` is one of hyper's (every error the routes give has a
//! JSON body), and it leaves with the API's body `{"error": "..."}` that says what to do,
//! its headers otherwise kept. Nothing else written is touched.

use serde_json::json;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A connection's stream whose refusals by hyper are made JSON.
pub struct JsonRefusals<S> {
    inner: S,
    /// A refusal rewritten, still to be written from `at` on.
    pending: Vec<u8>,
    at: usize,
}

impl<S> JsonRefusals<S> {
    pub fn new(inner: S) -> JsonRefusals<S> {
        JsonRefusals {
            inner,
            pending: Vec::new(),
            at: 0,
        }
    }
}

impl<S: AsyncWrite + Unpin> JsonRefusals<S> {
    /// Writes what is left of a rewritten refusal.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.at < self.pending.len() {
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.at..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.at += n;
        }
        self.pending.clear();
        self.at = 0;
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonRefusals<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonRefusals<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        ready!(this.drain(cx))?;
        if let Some(json) = rewritten(buf) {
            this.pending = json;
            // Taken whole: what the socket does not take now goes at the next write, flush
            // or shutdown, which hyper always makes.
            if let Poll::Ready(Err(e)) = this.drain(cx) {
                return Poll::Ready(Err(e));
            }
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        // A head is always hyper's first piece: a refusal is written alone.
        if let Some(first) = bufs.iter().find(|b| !b.is_empty()) {
            if rewritten(first).is_some() || !self.pending.is_empty() {
                return self.poll_write(cx, first);
            }
        }
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// `buf` rewritten, if it is a response head of hyper's own refusal (an error status, an
/// empty body, and nothing after the head): the same head with the API's JSON body.
fn rewritten(buf: &[u8]) -> Option<Vec<u8>> {
    let head = std::str::from_utf8(buf).ok()?;
    if !head.starts_with("HTTP/1.") || !head.ends_with("\r\n\r\n") {
        return None;
    }
    let mut lines = head.trim_end().split("\r\n");
    let status_line = lines.next()?;
    let status: u16 = status_line.split(' ').nth(1)?.parse().ok()?;
    let headers: Vec<&str> = lines.collect();
    let empty = headers
        .iter()
        .any(|h| h.eq_ignore_ascii_case("content-length: 0"));
    if status < 400 || !empty {
        return None;
    }
    let body = json!({ "error": message(status) }).to_string();
    let mut out = format!("{status_line}\r\n");
    for h in headers {
        if !h.to_ascii_lowercase().starts_with("content-length:") {
            out.push_str(h);
            out.push_str("\r\n");
        }
    }
    out.push_str("content-type: application/json\r\n");
    out.push_str("access-control-allow-origin: *\r\n");
    out.push_str(&format!("content-length: {}\r\n\r\n", body.len()));
    out.push_str(&body);
    Some(out.into_bytes())
}

/// What a refusal of hyper's means, and what to do.
fn message(status: u16) -> String {
    match status {
        400 => "the request cannot be read as HTTP/1.1 (its request line or a header is malformed): send GET /api/query?variant=V&position=P, with spaces in values as %20".into(),
        414 => "the URL is too long (at most 65,534 bytes): send many positions at once as a POST /api/query batch, a JSON body".into(),
        431 => "the request's headers are too large (at most 100 headers, about 400 KB in all): send fewer or shorter headers".into(),
        s => {
            let reason = axum::http::StatusCode::from_u16(s)
                .ok()
                .and_then(|c| c.canonical_reason())
                .unwrap_or("error");
            format!("the request was refused ({s} {reason})")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// hyper's refusal heads are rewritten with a JSON body; the routes' answers (a body of
    /// their own, or no error) and anything that is not a head are left alone.
    #[test]
    fn only_hypers_empty_refusals_are_rewritten() {
        let head = "HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\ndate: Thu, 26 Nov 2026 17:44:06 GMT\r\n\r\n";
        let out = String::from_utf8(rewritten(head.as_bytes()).unwrap()).unwrap();
        let (h, body) = out.split_once("\r\n\r\n").unwrap();
        assert!(h.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        assert!(h.contains("connection: close") && h.contains("date: "));
        assert!(
            h.contains(&format!("content-length: {}", body.len())),
            "{h}"
        );
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(v["error"].as_str().unwrap().contains("headers"), "{v}");
        for kept in [
            "HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: 20\r\n\r\n",
            "HTTP/1.1 204 No Content\r\ncontent-length: 0\r\n\r\n",
            "HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n{\"x\"}",
            "{\"error\": \"HTTP/1.1 400\"}",
        ] {
            assert!(rewritten(kept.as_bytes()).is_none(), "{kept}");
        }
    }
}
