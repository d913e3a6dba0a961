// An IPv4 address added to a network interface for a while and removed again: what a lab needs to show
// that the GID table of a RoCE port follows the addresses of its interface.
#pragma once

#include "rdmalab/format/trace.hpp"

#include <memory>
#include <string>

namespace rdmalab {

/// An IPv4 address on a network interface while the object lives: added with an rtnetlink RTM_NEWADDR,
/// removed with RTM_DELADDR by remove() or, if still there, by the destructor. Changing an interface's
/// addresses needs CAP_NET_ADMIN (root has it); without it the add fails with EPERM, explained.
///
/// Traced: `RTM_NEWADDR` and `RTM_DELADDR` verb events (data.args: interface, address, prefix length).
class InterfaceAddress {
  public:
    /// Adds `address`/`prefix` to `netdev` (NLM_F_EXCL: an address the interface already has is EEXIST, so
    /// the object never removes an address it did not add). Throws the explained RdmaError on failure.
    InterfaceAddress(std::string netdev, std::string address, int prefix, std::shared_ptr<Tracer> tracer);
    ~InterfaceAddress();
    InterfaceAddress(const InterfaceAddress&) = delete;
    InterfaceAddress& operator=(const InterfaceAddress&) = delete;

    /// Removes the address now; throws the explained RdmaError on failure. Once removed, the destructor
    /// does nothing.
    void remove();

    const std::string& netdev() const { return netdev_; }
    const std::string& address() const { return address_; }
    int prefix() const { return prefix_; }
    bool present() const { return present_; }

  private:
    /// One traced RTM_NEWADDR or RTM_DELADDR for this address; throws the explained RdmaError.
    void request(int type, const char* verb) const;
    std::shared_ptr<Tracer> tracer_;
    std::string netdev_;
    std::string address_;
    int prefix_ = 32;
    bool present_ = false;
};

/// Whether the calling thread has CAP_NET_ADMIN in its effective set (capget(2)); false when it cannot
/// tell.
bool thread_has_net_admin();

/// `address` in the IPv4-mapped form a RoCE v2 GID table shows it: "::ffff:192.0.2.10"; empty when
/// `address` is not an IPv4 address.
std::string ipv4_mapped_gid(const std::string& address);

} // namespace rdmalab
