DROP TABLE login_addresses;
DROP TABLE limit_windows;
