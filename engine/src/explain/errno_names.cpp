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

std::string errno_text_zh(int err) {
    // What strerror says, in Chinese, for the errnos errno_name knows; strerror's English for the rest.
    switch (err) {
    case EPERM:
        return "不允许的操作";
    case ENOENT:
        return "没有那个文件或目录";
    case EINTR:
        return "系统调用被中断";
    case EIO:
        return "输入/输出错误";
    case ENXIO:
        return "没有那个设备或地址";
    case EBADF:
        return "错误的文件描述符";
    case EAGAIN:
        return "资源暂时不可用";
    case ENOMEM:
        return "无法分配内存";
    case EACCES:
        return "权限不够";
    case EFAULT:
        return "错误的地址";
    case EBUSY:
        return "设备或资源忙";
    case EEXIST:
        return "文件已存在";
    case ENODEV:
        return "没有那个设备";
    case EINVAL:
        return "无效的参数";
    case ENOSPC:
        return "设备上没有剩余空间";
    case ENOSYS:
        return "函数未实现";
    case EOPNOTSUPP:
        return "不支持的操作";
    case EADDRINUSE:
        return "地址已在使用";
    case EADDRNOTAVAIL:
        return "无法分配请求的地址";
    case ENETUNREACH:
        return "网络不可达";
    case ECONNRESET:
        return "连接被对方重置";
    case ENOBUFS:
        return "没有可用的缓冲区空间";
    case ETIMEDOUT:
        return "连接超时";
    case ECONNREFUSED:
        return "连接被拒绝";
    case EHOSTUNREACH:
        return "没有到主机的路由";
    case EPROTONOSUPPORT:
        return "不支持的协议";
    case EAFNOSUPPORT:
        return "协议不支持该地址族";
    default:
        break;
    }
    return errno_text(err);
}

} // namespace rdmalab
