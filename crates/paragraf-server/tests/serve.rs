//! The server on a real loopback socket: `serve_on` answers HTTP/1.1 and shuts
//! down gracefully when its shutdown future resolves.

mod common;

use paragraf_server::{serve_on, Backend, ServerConfig};
use std::io::{Read, Write};
use std::sync::Arc;

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
