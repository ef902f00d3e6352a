//! The server on a real loopback socket: `serve_on` answers HTTP/1.1 and shuts
//! down gracefully when its shutdown future resolves.

mod common;

use paragraf_server::{serve_on, Backend, ServerConfig};
use std::io::{Read, Write};
use std::sync::Arc;
use std::time::Duration;

#[tokio::test]
async fn serves_on_loopback_and_shuts_down_gracefully() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(serve_on(
        listener,
        Arc::new(common::TestBackend::load()) as Arc<dyn Backend>,
        ServerConfig {
            addr,
            ..ServerConfig::default()
        },
        async {
            let _ = stopped.await;
        },
    ));
    // A blocking client on the blocking pool (tokio's io-util is not enabled).
    let buf = tokio::task::spawn_blocking(move || {
        let mut conn = std::net::TcpStream::connect(addr).unwrap();
        conn.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            .unwrap();
        let mut buf = String::new();
        conn.read_to_string(&mut buf).unwrap();
        buf
    })
    .await
    .unwrap();
    assert!(buf.starts_with("HTTP/1.1 200"), "{buf}");
    assert!(buf.to_ascii_lowercase().contains("x-request-id:"), "{buf}");
    assert!(buf.ends_with("{\"status\":\"ok\"}"), "{buf}");
    stop.send(()).unwrap();
    let res = tokio::time::timeout(std::time::Duration::from_secs(5), server)
        .await
        .expect("shuts down within 5 s")
        .expect("task");
    assert!(res.is_ok(), "{res:?}");
    assert!(
        tokio::net::TcpStream::connect(addr).await.is_err(),
        "listener closed"
    );
}

#[tokio::test]
async fn bind_error_names_the_address() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap();
    let err = paragraf_server::serve(
        Arc::new(common::TestBackend::load()) as Arc<dyn Backend>,
        ServerConfig {
            addr,
            ..ServerConfig::default()
        },
    )
    .await
    .unwrap_err();
    assert!(err.to_string().contains(&addr.to_string()), "{err}");
}

/// A server on a loopback port with short client timeouts; stops when the
/// returned sender is dropped.
async fn start(
    limits: paragraf_server::Limits,
) -> (std::net::SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(serve_on(
        listener,
        Arc::new(common::TestBackend::load()) as Arc<dyn Backend>,
        ServerConfig {
            addr,
            limits,
            ..ServerConfig::default()
        },
        async {
            let _ = stopped.await;
        },
    ));
    (addr, stop)
}

fn short_timeouts() -> paragraf_server::Limits {
    paragraf_server::Limits {
        header_read_timeout: Duration::from_millis(400),
        body_read_timeout: Duration::from_millis(400),
        ..paragraf_server::Limits::default()
    }
}

/// Write `first`, then read until the server closes (or 10 s pass, which
/// fails the test): what the server sent.
fn until_closed(addr: std::net::SocketAddr, first: &[u8]) -> String {
    let mut conn = std::net::TcpStream::connect(addr).unwrap();
    conn.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    conn.write_all(first).unwrap();
    let mut buf = Vec::new();
    match conn.read_to_end(&mut buf) {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {}
        Err(e) => panic!("server kept the connection open: {e}"),
    }
    String::from_utf8_lossy(&buf).into_owned()
}

#[tokio::test]
async fn idle_and_partial_header_connections_are_closed() {
    let (addr, _stop) = start(short_timeouts()).await;
    let out = tokio::task::spawn_blocking(move || {
        [
            until_closed(addr, b""),
            until_closed(addr, b"POST /v1/search HTTP/1.1\r\nHost: localhost\r\n"),
            // keep-alive: the next request never comes
            until_closed(addr, b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"),
        ]
    })
    .await
    .unwrap();
    assert!(!out[0].contains("200"), "{}", out[0]);
    assert!(!out[1].contains(" 200 "), "{}", out[1]);
    assert!(out[2].starts_with("HTTP/1.1 200"), "{}", out[2]);
    assert_eq!(out[2].matches("HTTP/1.1").count(), 1, "{}", out[2]);
}

#[tokio::test]
async fn a_trickled_body_is_408_and_closed() {
    let (addr, _stop) = start(short_timeouts()).await;
    let out = tokio::task::spawn_blocking(move || {
        until_closed(
            addr,
            b"POST /v1/search HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"query\":",
        )
    })
    .await
    .unwrap();
    assert!(out.starts_with("HTTP/1.1 408"), "{out}");
    assert!(out.contains("body_timeout"), "{out}");
}

#[tokio::test]
async fn connections_beyond_the_cap_wait_for_a_free_slot() {
    let limits = paragraf_server::Limits {
        max_connections: 2,
        ..paragraf_server::Limits::default()
    };
    let (addr, _stop) = start(limits).await;
    let hog = tokio::task::spawn_blocking(move || {
        let a = std::net::TcpStream::connect(addr).unwrap();
        let b = std::net::TcpStream::connect(addr).unwrap();
        (a, b)
    })
    .await
    .unwrap();
    let (tx, mut rx) = tokio::sync::mpsc::channel(1);
    tokio::task::spawn_blocking(move || {
        let out = until_closed(
            addr,
            b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
        );
        let _ = tx.blocking_send(out);
    });
    // both slots are held by idle clients: the third is not served ...
    assert!(
        tokio::time::timeout(Duration::from_millis(500), rx.recv())
            .await
            .is_err(),
        "served beyond the cap"
    );
    // ... until one of them leaves
    drop(hog.0);
    let out = tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("served once a slot is free")
        .unwrap();
    assert!(out.starts_with("HTTP/1.1 200"), "{out}");
    drop(hog.1);
}
