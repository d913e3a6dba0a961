// The engine process protocol's command table, looked up and listed (protocol.hpp).
#include "rdmalab/format/protocol.hpp"

namespace rdmalab::protocol {

const Command* find_command(std::string_view name) {
    for (const auto& command : kCommands)
        if (command.name == name) return &command;
    return nullptr;
}

std::string command_names() {
    std::string names;
    for (const auto& command : kCommands) {
        if (!names.empty()) names += ", ";
        names += command.name;
    }
    return names;
}

} // namespace rdmalab::protocol
