// errno's names and texts, for the `code` and `meaning` of an ErrorInfo (declared in names.hpp).
#include "rdmalab/engine/names.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

namespace rdmalab {

std::string errno_name(int err) {
    switch (err) {
    case 0:
        return "OK";
    case EPERM:
        return "EPERM";
    case ENOENT:
        return "ENOENT";
    case EINTR:
        return "EINTR";
    case EIO:
        return "EIO";
    case ENXIO:
        return "ENXIO";
    case EBADF:
        return "EBADF";
    case EAGAIN:
        return "EAGAIN";
    case ENOMEM:
        return "ENOMEM";
    case EACCES:
        return "EACCES";
    case EFAULT:
        return "EFAULT";
    case EBUSY:
        return "EBUSY";
    case EEXIST:
        return "EEXIST";
    case ENODEV:
        return "ENODEV";
    case EINVAL:
        return "EINVAL";
    case ENOSPC:
        return "ENOSPC";
    case ENOSYS:
        return "ENOSYS";
    case EOPNOTSUPP:
        return "EOPNOTSUPP";
    case EADDRINUSE:
        return "EADDRINUSE";
    case EADDRNOTAVAIL:
        return "EADDRNOTAVAIL";
    case ENETUNREACH:
        return "ENETUNREACH";
    case ECONNRESET:
        return "ECONNRESET";
    case ENOBUFS:
        return "ENOBUFS";
    case ETIMEDOUT:
        return "ETIMEDOUT";
    case ECONNREFUSED:
        return "ECONNREFUSED";
    case EHOSTUNREACH:
        return "EHOSTUNREACH";
    case EPROTONOSUPPORT:
        return "EPROTONOSUPPORT";
    case EAFNOSUPPORT:
        return "EAFNOSUPPORT";
    default:
        break;
    }
    return fmt::format("errno {}", err);
}

std::string errno_text(int err) {
    return std::strerror(err);
}

} // namespace rdmalab
