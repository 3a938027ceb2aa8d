filedesc://x.arc 0.0.0.0 20080430204825 text/plain 65
1 0 Test
URL IP-address Archive-date Content-type Archive-length

http://e.com/ 1.2.3.4 20080430204825 text/html 77
HTTP/1.1 200 OK
Content-Type: text/html

<a href=/a>a</a><image src=i.png>
http://e.com/c 1.2.3.4 20080430204825 text/html 92
HTTP/1.1 200 OK
Transfer-Encoding: chunked
Content-Type: text/html

<a href=/stale>s</a>
http://e.com/l 1.2.3.4 20080430204825 text/html 58
HTTP/1.1 200 OK
Content-Type: text/html

<a href=/lf>x</a>
